import { ContentLayout } from '@/components/layout/content-layout';
import { PlaceholderPanel } from '@/components/ui/placeholder-panel';

export function AccountPage() {
  return (
    <ContentLayout title="Account Settings" description="Your profile and email connection.">
      <PlaceholderPanel>Profile and email connection settings will appear here.</PlaceholderPanel>
    </ContentLayout>
  );
}
