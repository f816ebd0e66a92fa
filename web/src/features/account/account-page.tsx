import { Link, Tabs } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { ContentLayout } from '@/components/layout/content-layout';
import { PlaceholderPanel } from '@/components/ui/placeholder-panel';
import { useUrlTab } from '@/hooks/use-url-tab';

// Account Settings' two tabs; `id` is what the URL carries (?tab=email).
const ACCOUNT_TAB_IDS = ['profile', 'email'] as const;

export function AccountPage() {
  const [selected, selectTab] = useUrlTab(ACCOUNT_TAB_IDS);
  return (
    <ContentLayout title="Account Settings" description="Your profile and email connection.">
      <Tabs.Root value={selected} onValueChange={(details) => selectTab(details.value)} lazyMount variant="line">
        <Tabs.List>
          <Tabs.Trigger value="profile">Profile</Tabs.Trigger>
          <Tabs.Trigger value="email">Email Connection</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="profile" pt="6">
          <PlaceholderPanel>Your profile settings will appear here.</PlaceholderPanel>
        </Tabs.Content>
        <Tabs.Content value="email" pt="6">
          <PlaceholderPanel>
            Email connection settings will appear here. Until then, use the{' '}
            <Link asChild color="brand.fg" fontWeight="medium">
              <RouterLink to="/connect-email">Email Connection page</RouterLink>
            </Link>
            .
          </PlaceholderPanel>
        </Tabs.Content>
      </Tabs.Root>
    </ContentLayout>
  );
}
