import { TextField, type TextFieldProps } from './text-field';

export type MoneyFieldProps = Omit<TextFieldProps, 'type' | 'inputMode'>;

/**
 * An amount in dollars, typed as text ('$1,234.50', '12.5'): `useZodForm().moneyField(name)`
 * turns it into integer cents for the request (`parseMoney` in lib/format.ts) and shows a
 * readable amount with two decimals once the field loses focus.
 */
export function MoneyField(props: MoneyFieldProps) {
  return <TextField inputMode="decimal" autoComplete="off" spellCheck={false} {...props} />;
}
