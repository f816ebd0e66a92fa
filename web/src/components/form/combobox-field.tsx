import { Combobox, Field, Portal, createListCollection } from '@chakra-ui/react';
import { useMemo, useRef, useState, type ReactNode } from 'react';

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

/** What opens the list whether or not the field has the focus yet: the traveller's own click or key. */
const GESTURES = new Set(['input-click', 'trigger-click', 'arrow-key']);

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
  // The list is open only while the traveller is in the field: a list opening on its own (a
  // re-render after a failed submit) would take the focus from the field the error names.
  const input = useRef<HTMLInputElement | null>(null);
  const [open, setOpen] = useState(false);
  const inField = () => input.current !== null && input.current.ownerDocument.activeElement === input.current;
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
        open={open}
        onOpenChange={(details) => setOpen(details.open && (GESTURES.has(details.reason ?? '') || inField()))}
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
          <Combobox.Input ref={input} name={name} placeholder={placeholder} autoComplete="off" spellCheck={false} />
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
