import { Box, HStack, Stack, Text, type StackProps } from '@chakra-ui/react';
import { IconCheck } from './icons';

/** A list of what something includes, each item ticked (plans, checkout, upsell). */
export function CheckList({ items, ...props }: { items: readonly string[] } & Omit<StackProps, 'children'>) {
  return (
    <Stack as="ul" listStyleType="none" gap="3" {...props}>
      {items.map((item) => (
        <HStack as="li" key={item} gap="3" align="flex-start">
          <Box color="green.600" mt="1" aria-hidden="true">
            <IconCheck />
          </Box>
          <Text>{item}</Text>
        </HStack>
      ))}
    </Stack>
  );
}
