import { ContentLayout } from '@/components/layout/content-layout';
import { PlaceholderPanel } from '@/components/ui/placeholder-panel';

export function ConnectEmailPage() {
  return (
    <ContentLayout
      title="Email Connection"
      description="Connect your inbox so FareBack can find your flight confirmations."
    >
      <PlaceholderPanel>Gmail connection will appear here.</PlaceholderPanel>
    </ContentLayout>
  );
}
