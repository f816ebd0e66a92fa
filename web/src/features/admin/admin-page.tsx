import { ContentLayout } from '@/components/layout/content-layout';
import { PlaceholderPanel } from '@/components/ui/placeholder-panel';

export function AdminPage() {
  return (
    <ContentLayout title="Admin Dashboard" description="Users, flights, billing and subscription plans.">
      <PlaceholderPanel>Administration tools will appear here.</PlaceholderPanel>
    </ContentLayout>
  );
}
