import { Field, Input, type InputProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface TextFieldProps extends Omit<InputProps, 'children'> {
  label: string;
  name: string;
  error?: string | undefined;
  hint?: ReactNode;
}

/**
 * A labelled input with hint and error text wired to it (aria-describedby, aria-invalid).
 * Pass `required` for required fields: forms use noValidate, so the schema's messages show
 * instead of the browser's.
 */
export function TextField({ label, error, hint, required, disabled, ...inputProps }: TextFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)} required={required} disabled={disabled}>
      <Field.Label>{label}</Field.Label>
      <Input size="lg" {...inputProps} />
      {hint && <Field.HelperText>{hint}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
