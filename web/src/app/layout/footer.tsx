import { Box, Container, Flex, HStack, Link, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';

const links = [
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
  { to: '/help', label: 'Help Center' },
];

export function Footer() {
  return (
    <Box as="footer" borderTopWidth="1px" bg="bg.subtle">
      <Container maxW="6xl" py="6">
        <Flex
          direction={{ base: 'column', md: 'row' }}
          justify="space-between"
          align={{ base: 'flex-start', md: 'center' }}
          gap="3"
        >
          <Text fontSize="sm" color="fg.muted">
            © {new Date().getFullYear()} FareBack. All rights reserved.
          </Text>
          <nav aria-label="Footer">
            <HStack as="ul" gap="5" listStyleType="none" flexWrap="wrap">
              {links.map(({ to, label }) => (
                <li key={to}>
                  <Link asChild fontSize="sm" color="fg.muted" _hover={{ color: 'fg' }}>
                    <RouterLink to={to}>{label}</RouterLink>
                  </Link>
                </li>
              ))}
            </HStack>
          </nav>
        </Flex>
      </Container>
    </Box>
  );
}
