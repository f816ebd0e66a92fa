import { Button, CloseButton, Drawer, HStack, IconButton, Portal, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuLogOut, LuMenu } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import type { CurrentUser } from '@/lib/auth';
import { accountLinks } from './use-account-links';
import { AdminBadge, UserAvatar } from './user-menu';

/** Under 768 px the signed-in header collapses into this drawer; sign-out reads 'Log out'. */
export function MobileMenu({ user, onSignOut }: { user: CurrentUser; onSignOut: () => void }) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);

  return (
    <Drawer.Root open={open} onOpenChange={(details) => setOpen(details.open)} placement="end" size="xs">
      <Drawer.Trigger asChild>
        <IconButton variant="ghost" aria-label="Open menu" size="md">
          <LuMenu />
        </IconButton>
      </Drawer.Trigger>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <HStack gap="3" minW="0">
                <UserAvatar username={user.username} />
                <Drawer.Title fontSize="md" truncate>
                  {user.username}
                </Drawer.Title>
                {user.isAdmin && <AdminBadge />}
              </HStack>
            </Drawer.Header>
            <Drawer.Body>
              <nav aria-label="Account">
                <Stack gap="1">
                  <Text fontSize="sm" color="fg.muted" mb="2" truncate>
                    {user.email}
                  </Text>
                  {accountLinks(user).map(({ value, label, to }) => (
                    <Button key={value} asChild variant="ghost" justifyContent="flex-start" size="lg" onClick={close}>
                      <RouterLink to={to}>{label}</RouterLink>
                    </Button>
                  ))}
                  <Button
                    variant="ghost"
                    justifyContent="flex-start"
                    size="lg"
                    color="fg.error"
                    onClick={() => {
                      close();
                      onSignOut();
                    }}
                  >
                    <LuLogOut aria-hidden="true" />
                    Log out
                  </Button>
                </Stack>
              </nav>
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close menu" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
