import { Link, Text } from '@chakra-ui/react';
import { DEFAULT_SUPPORT_EMAIL, SUPPORT_HOURS, SUPPORT_RESPONSE_TIME } from '@shared/constants.ts';
import { ContentLayout } from '@/components/layout/content-layout';

export function ContactPage() {
  return (
    <ContentLayout
      title="Contact Us"
      description={`Questions about your flights or your account? We reply within ${SUPPORT_RESPONSE_TIME}.`}
    >
      <Text>
        Email us at{' '}
        <Link href={`mailto:${DEFAULT_SUPPORT_EMAIL}`} color="brand.fg" fontWeight="medium">
          {DEFAULT_SUPPORT_EMAIL}
        </Link>
        . We&apos;re available {SUPPORT_HOURS}, closed at weekends.
      </Text>
    </ContentLayout>
  );
}
