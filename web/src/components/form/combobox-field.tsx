import { Combobox, Field, Portal, createListCollection } from '@chakra-ui/react';
import { useMemo, type ReactNode } from 'react';

export interface ComboboxOption {
  /** What choosing it puts in the field. */
  value: string;
  /** What the list shows. */
  label: string;
}

export interface ComboboxFieldProps {
  label: string;
  name: string;
  /** The text in the field: typed, or the value of the option chosen. */
  value: string;
  onChange: (text: string) => void;
  /** The suggestions for the text typed (the caller filters or searches). */
  options: readonly ComboboxOption[];
  /** Any text is accepted, not only an option's. */
  placeholder?: string;
  /** Shown in the list when nothing matches. */
  emptyText?: string;
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean;
  disabled?: boolean;
}

/**
 * A labelled text field that suggests options as the traveller types (a searchable picker):
 * the caller filters the options for the text; any text is accepted. Hint and error are wired
 * for screen readers like TextField.
 */
export function ComboboxField({
  label,
  name,
  value,
  onChange,
  options,
  placeholder,
  emptyText = 'No matches: what you typed is used as it is',
  error,
  hint,
  required,
  disabled,
}: ComboboxFieldProps) {
  const collection = useMemo(
    () => createListCollection({ items: [...options], itemToString: (o) => o.value, itemToValue: (o) => o.value }),
    [options],
  );
  return (
    <Field.Root invalid={Boolean(error)} required={required} disabled={disabled}>
      <Combobox.Root
        collection={collection}
        inputValue={value}
        onInputValueChange={(details) => onChange(details.inputValue)}
        onValueChange={(details) => {
          const chosen = details.value[0];
          if (chosen) onChange(chosen);
        }}
        allowCustomValue
        openOnClick
        selectionBehavior="replace"
        inputBehavior="none"
        size="lg"
        disabled={disabled}
        invalid={Boolean(error)}
        required={required}
      >
        <Combobox.Label>{label}</Combobox.Label>
        <Combobox.Control>
          <Combobox.Input name={name} placeholder={placeholder} autoComplete="off" spellCheck={false} />
          <Combobox.IndicatorGroup>
            <Combobox.Trigger />
          </Combobox.IndicatorGroup>
        </Combobox.Control>
        <Portal>
          <Combobox.Positioner>
            <Combobox.Content maxH="72">
              <Combobox.Empty>{emptyText}</Combobox.Empty>
              {collection.items.map((option) => (
                <Combobox.Item item={option} key={option.value}>
                  {option.label}
                  <Combobox.ItemIndicator />
                </Combobox.Item>
              ))}
            </Combobox.Content>
          </Combobox.Positioner>
        </Portal>
      </Combobox.Root>
      {hint && !error && <Field.HelperText>{hint}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
