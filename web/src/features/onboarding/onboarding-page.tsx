import { ContentLayout } from '@/components/layout/content-layout';
import { PlaceholderPanel } from '@/components/ui/placeholder-panel';

export function OnboardingPage() {
  return (
    <ContentLayout
      title="Welcome to FareBack"
      description="Three quick steps to start saving on the flights you've booked."
    >
      <PlaceholderPanel>The setup steps will appear here.</PlaceholderPanel>
    </ContentLayout>
  );
}
