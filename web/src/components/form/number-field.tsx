import { Field, NumberInput } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface NumberFieldProps {
  label: string;
  name: string;
  /** The text as typed; `useZodForm().numberField(name)` keeps the number it reads. */
  value: string;
  onValueChange: (details: { value: string; valueAsNumber: number }) => void;
  min?: number;
  max?: number;
  step?: number;
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean;
  disabled?: boolean;
}

/**
 * A labelled number with stepper buttons (and arrow keys). It does not clamp on blur: a value
 * out of range stays as typed and the schema's message says why, rather than the number changing
 * under the person's hands. Money is not a number field: use MoneyField.
 */
export function NumberField({
  label,
  error,
  hint,
  required,
  disabled,
  onValueChange,
  ...inputProps
}: NumberFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)} required={required} disabled={disabled}>
      <Field.Label>{label}</Field.Label>
      <NumberInput.Root
        size="lg"
        width="full"
        clampValueOnBlur={false}
        onValueChange={({ value, valueAsNumber }) => onValueChange({ value, valueAsNumber })}
        {...inputProps}
      >
        <NumberInput.Control />
        <NumberInput.Input />
      </NumberInput.Root>
      {hint && <Field.HelperText>{hint}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
