import { Text } from '@chakra-ui/react';
import { ContentLayout } from '@/components/layout/content-layout';

export function PrivacyPage() {
  return (
    <ContentLayout title="Privacy Policy">
      <Text color="fg.muted">
        How FareBack collects, uses and protects your information, including the flight confirmations it reads from your
        inbox.
      </Text>
    </ContentLayout>
  );
}

export function TermsPage() {
  return (
    <ContentLayout title="Terms of Service">
      <Text color="fg.muted">The terms that apply when you use FareBack to monitor and rebook your flights.</Text>
    </ContentLayout>
  );
}

export function HelpPage() {
  return (
    <ContentLayout title="Help Center">
      <Text color="fg.muted">Answers to common questions about price monitoring, rebooking and airline credits.</Text>
    </ContentLayout>
  );
}
