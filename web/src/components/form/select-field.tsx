import { Field, NativeSelect } from '@chakra-ui/react';
import type { ChangeEvent, ReactNode } from 'react';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
  /** Plain strings are both the value and the label. */
  options: readonly (string | SelectOption)[];
  /** The first, empty choice ('Select an airline'); leave it out when a choice is always made. */
  placeholder?: string;
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean;
  disabled?: boolean;
}

/**
 * A labelled native select (the platform's own picker on phones, no extra script) with hint and
 * error wired for screen readers like TextField.
 */
export function SelectField({
  label,
  error,
  hint,
  required,
  disabled,
  options,
  placeholder,
  ...selectProps
}: SelectFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)} required={required} disabled={disabled}>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root size="lg">
        <NativeSelect.Field {...selectProps}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((option) => {
            const { value, label: text } = typeof option === 'string' ? { value: option, label: option } : option;
            return (
              <option key={value} value={value}>
                {text}
              </option>
            );
          })}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {hint && <Field.HelperText>{hint}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
