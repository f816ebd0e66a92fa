import { Container, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface ContentLayoutProps {
  title: string;
  description?: ReactNode;
  /** Buttons or badges shown beside the title. */
  actions?: ReactNode;
  children?: ReactNode;
}

/** A page with its h1 (also the document title) and content in the site's container. */
export function ContentLayout({ title, description, actions, children }: ContentLayoutProps) {
  return (
    <Container maxW="6xl" py={{ base: '8', md: '12' }}>
      <title>{`${title} · FareBack`}</title>
      <Stack
        direction={{ base: 'column', md: 'row' }}
        justify="space-between"
        align={{ base: 'flex-start', md: 'center' }}
        gap="4"
        mb="8"
      >
        <Stack gap="2">
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="tight">
            {title}
          </Heading>
          {description && (
            <Text color="fg.muted" fontSize="lg" maxW="3xl">
              {description}
            </Text>
          )}
        </Stack>
        {actions}
      </Stack>
      {children}
    </Container>
  );
}
