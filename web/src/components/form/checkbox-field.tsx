import { Checkbox, Field } from '@chakra-ui/react';
import type { SwitchFieldProps } from './switch-field';

/** The same props as a switch: `useZodForm().checkboxField(name)` gives them. */
export type CheckboxFieldProps = SwitchFieldProps;

/**
 * A yes/no field of a form that is saved with the form (a switch is for a setting that applies at
 * once): the box, its label beside it, hint and error below.
 */
export function CheckboxField({ label, name, checked, onCheckedChange, error, hint, disabled }: CheckboxFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)} disabled={disabled}>
      <Checkbox.Root
        name={name}
        checked={checked}
        onCheckedChange={(details) => onCheckedChange(details.checked === true)}
      >
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>{label}</Checkbox.Label>
      </Checkbox.Root>
      {hint && <Field.HelperText>{hint}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
