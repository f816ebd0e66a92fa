import { Box, Button, Container, Flex, HStack, Link, SkeletonCircle, Text } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { IconPlane } from '@/components/ui/icons';
import { Link as RouterLink } from 'react-router';
import { useCurrentUser } from '@/lib/auth';
import { loadQueryRuntime } from '@/lib/query-runtime-loader';
import { loadSlotRecipes } from '../theme';
import { SiteMobileMenu, SiteNavLinks, useSiteNav } from './site-nav';

// The avatar menu and drawer use slot recipes and a mutation (sign-out): both load first.
const SignedInNav = lazy(async () => {
  const [nav] = await Promise.all([import('./signed-in-nav'), loadSlotRecipes(), loadQueryRuntime()]);
  return nav;
});

export function Brand() {
  return (
    <Link
      asChild
      fontWeight="bold"
      fontSize="xl"
      letterSpacing="tight"
      color="fg"
      _hover={{ textDecoration: 'none', color: 'brand.fg' }}
    >
      <RouterLink to="/" aria-label="FareBack home">
        <Flex
          as="span"
          align="center"
          justify="center"
          boxSize="8"
          borderRadius="lg"
          bg="brand.solid"
          color="brand.contrast"
          aria-hidden="true"
        >
          <IconPlane />
        </Flex>
        <Text as="span">FareBack</Text>
      </RouterLink>
    </Link>
  );
}

export function Header() {
  const { data: user } = useCurrentUser();
  const siteLinks = useSiteNav();

  return (
    <Box
      as="header"
      position="sticky"
      top="0"
      zIndex="sticky"
      bg="bg/90"
      backdropFilter="saturate(180%) blur(8px)"
      borderBottomWidth="1px"
    >
      <Container maxW="6xl">
        <Flex as="nav" aria-label="Main" align="center" justify="space-between" h="16" gap="4">
          <Brand />
          {siteLinks && <SiteNavLinks links={siteLinks} dashboard={Boolean(user)} />}
          {user ? (
            <Suspense fallback={<SkeletonCircle size="8" />}>
              <SignedInNav user={user} />
            </Suspense>
          ) : (
            <HStack gap={{ base: '2', md: '3' }}>
              <HStack gap={{ base: '2', md: '3' }} hideBelow={siteLinks ? 'md' : undefined}>
                <Button asChild variant="ghost" size={{ base: 'sm', md: 'md' }}>
                  <RouterLink to="/login">Log In</RouterLink>
                </Button>
                <Button asChild size={{ base: 'sm', md: 'md' }}>
                  <RouterLink to="/sign-up">Sign Up</RouterLink>
                </Button>
              </HStack>
              {siteLinks && <SiteMobileMenu links={siteLinks} />}
            </HStack>
          )}
        </Flex>
      </Container>
    </Box>
  );
}
