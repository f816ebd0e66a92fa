import { Box, Container, Heading, Stack, Text, type BoxProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface SectionProps extends Omit<BoxProps, 'title'> {
  id: string;
  eyebrow?: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}

/**
 * A landing page section: a labelled region that header links can scroll to (tabIndex -1 takes
 * focus after the scroll; the scroll margin clears the 64 px sticky header).
 */
export function Section({ id, eyebrow, title, intro, children, ...boxProps }: SectionProps) {
  return (
    <Box
      as="section"
      id={id}
      aria-labelledby={`${id}-title`}
      tabIndex={-1}
      scrollMarginTop="16"
      py={{ base: '14', md: '20' }}
      _focusVisible={{ outline: 'none' }}
      {...boxProps}
    >
      <Container maxW="6xl">
        <Stack gap="3" mb={{ base: '8', md: '12' }} maxW="3xl" mx="auto" textAlign="center">
          {eyebrow && (
            <Text color="brand.fg" fontWeight="semibold" textTransform="uppercase" letterSpacing="wider" fontSize="sm">
              {eyebrow}
            </Text>
          )}
          <Heading as="h2" id={`${id}-title`} fontSize={{ base: '3xl', md: '4xl' }} letterSpacing="tight">
            {title}
          </Heading>
          {intro && (
            <Text color="fg.muted" fontSize={{ base: 'md', md: 'lg' }}>
              {intro}
            </Text>
          )}
        </Stack>
        {children}
      </Container>
    </Box>
  );
}
