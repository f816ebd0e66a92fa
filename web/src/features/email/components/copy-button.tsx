import { Button, type ButtonProps } from '@chakra-ui/react';
import { notify } from '@/components/ui/toaster';

/** Copies `text` to the clipboard and says 'Copied!' (a toast), or why it could not. */
export function CopyButton({ text, children, ...props }: { text: string } & ButtonProps) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      notify({ title: 'Copied!', description: text, status: 'success' });
    } catch {
      notify({ title: 'Copy failed', description: 'Select the text and copy it yourself.', status: 'error' });
    }
  };
  return (
    <Button size="sm" variant="outline" onClick={() => void copy()} {...props}>
      {children}
    </Button>
  );
}
