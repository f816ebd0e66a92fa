import { Field, Switch } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface SwitchFieldProps {
  label: string;
  name: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  error?: string | undefined;
  hint?: ReactNode;
  disabled?: boolean;
}

/**
 * An on/off setting: the label beside the switch, hint and error below it. The switch is a
 * checkbox to assistive technology (role switch), labelled by the label and described by the
 * hint and error through the surrounding Field.
 */
export function SwitchField({ label, name, checked, onCheckedChange, error, hint, disabled }: SwitchFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)} disabled={disabled}>
      <Switch.Root name={name} checked={checked} onCheckedChange={(details) => onCheckedChange(details.checked)}>
        <Switch.HiddenInput />
        <Switch.Control />
        <Switch.Label>{label}</Switch.Label>
      </Switch.Root>
      {hint && <Field.HelperText>{hint}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
