import { ContentLayout } from '@/components/layout/content-layout';
import { PlaceholderPanel } from '@/components/ui/placeholder-panel';

export function DashboardPage() {
  return (
    <ContentLayout title="Flight Savings Dashboard" description="Your monitored flights, price drops and savings.">
      <PlaceholderPanel>Your monitored flights will appear here.</PlaceholderPanel>
    </ContentLayout>
  );
}
