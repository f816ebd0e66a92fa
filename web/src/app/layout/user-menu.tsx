import { Avatar, Badge, Button, HStack, Menu, Portal, Text } from '@chakra-ui/react';
import { LuChevronDown, LuLayoutDashboard, LuLogOut, LuSettings, LuShield } from 'react-icons/lu';
import type { IconType } from 'react-icons';
import { useNavigate } from 'react-router';
import type { CurrentUser } from '@/lib/auth';
import { accountLinks } from './use-account-links';

const icons: Record<string, IconType> = {
  account: LuSettings,
  dashboard: LuLayoutDashboard,
  admin: LuShield,
};

export function userInitial(username: string): string {
  return (username.trim()[0] ?? '?').toUpperCase();
}

export function AdminBadge() {
  return (
    <Badge colorPalette="purple" variant="solid" size="sm">
      Admin
    </Badge>
  );
}

export function UserAvatar({ username }: { username: string }) {
  return (
    <Avatar.Root size="sm" colorPalette="brand" variant="solid">
      <Avatar.Fallback>{userInitial(username)}</Avatar.Fallback>
    </Avatar.Root>
  );
}

/** Desktop: username, Admin badge and the avatar menu. */
export function UserMenu({ user, onSignOut }: { user: CurrentUser; onSignOut: () => void }) {
  const navigate = useNavigate();
  const links = accountLinks(user);

  return (
    <HStack gap="3">
      <Text fontWeight="medium" maxW="48" truncate>
        {user.username}
      </Text>
      {user.isAdmin && <AdminBadge />}
      <Menu.Root
        positioning={{ placement: 'bottom-end' }}
        onSelect={({ value }) => {
          if (value === 'sign-out') return onSignOut();
          const link = links.find((l) => l.value === value);
          if (link) void navigate(link.to);
        }}
      >
        <Menu.Trigger asChild>
          <Button variant="ghost" px="1" gap="1" aria-label="Account menu" borderRadius="full">
            <UserAvatar username={user.username} />
            <LuChevronDown aria-hidden="true" />
          </Button>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="56">
              <Menu.ItemGroup>
                <Menu.ItemGroupLabel>
                  <Text truncate>{user.email}</Text>
                </Menu.ItemGroupLabel>
                {links.map(({ value, label }) => {
                  const Icon = icons[value];
                  return (
                    <Menu.Item key={value} value={value}>
                      {Icon && <Icon aria-hidden="true" />}
                      {label}
                    </Menu.Item>
                  );
                })}
              </Menu.ItemGroup>
              <Menu.Separator />
              <Menu.Item value="sign-out" color="fg.error" _highlighted={{ bg: 'bg.error', color: 'fg.error' }}>
                <LuLogOut aria-hidden="true" />
                Sign out
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
    </HStack>
  );
}
