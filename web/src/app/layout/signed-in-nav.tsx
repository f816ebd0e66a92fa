import { Box, HStack } from '@chakra-ui/react';
import type { CurrentUser } from '@/lib/auth';
import { useLogout } from '@/features/auth/api';
import { MobileMenu } from './mobile-menu';
import { AdminBadge, UserMenu } from './user-menu';

/**
 * The signed-in part of the header: the avatar menu from 768 px up, the drawer below. Loaded
 * lazily, so visitors do not download the menu, drawer and sign-out code.
 */
export default function SignedInNav({ user }: { user: CurrentUser }) {
  const logout = useLogout();
  const signOut = () => logout.mutate();

  return (
    <>
      <Box hideBelow="md">
        <UserMenu user={user} onSignOut={signOut} />
      </Box>
      <HStack hideFrom="md" gap="2">
        {user.isAdmin && <AdminBadge />}
        <MobileMenu user={user} onSignOut={signOut} />
      </HStack>
    </>
  );
}
