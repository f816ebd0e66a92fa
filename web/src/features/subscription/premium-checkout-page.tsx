import { ContentLayout } from '@/components/layout/content-layout';
import { PlaceholderPanel } from '@/components/ui/placeholder-panel';

export function PremiumCheckoutPage() {
  return (
    <ContentLayout
      title="Upgrade to Premium"
      description="Unlimited monitoring and automatic rebooking when prices drop."
    >
      <PlaceholderPanel>Checkout will appear here.</PlaceholderPanel>
    </ContentLayout>
  );
}
