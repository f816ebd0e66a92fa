import { EmailConnectActions, EmailImportProgress } from '@/features/email';
import { ManualEntryForm } from '@/features/flights';
import { OnboardingPage } from '@/features/onboarding/onboarding-page';

/** /onboarding composes the wizard with the email feature's connect actions and scan, and the flight form. */
export function OnboardingRoute() {
  return (
    <OnboardingPage
      connectEmail={<EmailConnectActions gmailLabel="Connect Gmail" />}
      manualEntry={(onAdded) => <ManualEntryForm onAdded={onAdded} />}
      emailImport={<EmailImportProgress />}
    />
  );
}
