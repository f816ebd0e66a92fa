import { Box, Button, Card, Code, Field, Heading, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { FormDialog } from '@/components/form/form-dialog';
import { notify } from '@/components/ui/toaster';
import {
  openAuthorizationTab,
  useConnectGmail,
  useManualTokenExchange,
  useOAuthConfig,
  useToggleDevEmail,
} from '../api';
import { CopyButton } from './copy-button';

/** The Gmail OAuth Configuration box: the redirect URI to register with Google, and what is set up. */
export function OAuthConfigBox() {
  const config = useOAuthConfig();
  const [showDetails, setShowDetails] = useState(false);
  if (!config.data) return null;
  const { redirectUri, clientIdAvailable, clientSecretAvailable, scopes } = config.data;
  return (
    <Card.Root variant="subtle" size="sm">
      <Card.Body gap="3">
        <Heading as="h3" size="sm">
          Gmail OAuth Configuration
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          Redirect URI (register it with Google):
        </Text>
        <Stack direction={{ base: 'column', sm: 'row' }} gap="2" align={{ base: 'stretch', sm: 'center' }}>
          <Code flex="1" px="2" py="1" wordBreak="break-all" whiteSpace="normal">
            {redirectUri}
          </Code>
          <HStack gap="2">
            <CopyButton text={redirectUri}>Copy URI</CopyButton>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => setShowDetails((shown) => !shown)}
              aria-expanded={showDetails}
            >
              {showDetails ? 'Hide Details' : 'Show Details'}
            </Button>
          </HStack>
        </Stack>
        {showDetails && (
          <Box as="ul" fontSize="sm" ps="5" listStyleType="disc" display="flex" flexDirection="column" gap="1">
            <li>Client ID: {clientIdAvailable ? 'Available' : 'Not configured'}</li>
            <li>Client secret: {clientSecretAvailable ? 'Available' : 'Not configured'}</li>
            <li>
              Required scopes:{' '}
              {scopes.map((scope) => (
                <Code key={scope} fontSize="xs" wordBreak="break-all" whiteSpace="normal">
                  {scope}
                </Code>
              ))}
            </li>
          </Box>
        )}
      </Card.Body>
    </Card.Root>
  );
}

/**
 * Whether Google can send the traveller back to FareBack after consent: the redirect URI is a web
 * address (the /oauth2callback route). Only when it is not (an out-of-band URI, where Google shows
 * a code to copy) is 'Enter Authorization Code' offered; the redirect flow never needs it.
 */
export function redirectComesBack(redirectUri: string | undefined): boolean {
  return redirectUri === undefined || /^https?:\/\//i.test(redirectUri);
}

/**
 * 'Connect with Gmail' (or another label), 'Toggle Email (Dev)' where the server offers the
 * sample mailbox, and, only when the redirect cannot come back, 'Enter Authorization Code' (which
 * then opens by itself once Google's page is open).
 */
export function EmailConnectActions({ gmailLabel = 'Connect with Gmail' }: { gmailLabel?: string }) {
  const config = useOAuthConfig();
  const devConnectAvailable = config.data?.devConnectAvailable === true;
  const connect = useConnectGmail({ devConnectAvailable });
  const toggle = useToggleDevEmail();
  const [codeOpen, setCodeOpen] = useState(false);
  const codeNeeded = !redirectComesBack(config.data?.redirectUri);

  return (
    <>
      <Stack direction={{ base: 'column', sm: 'row' }} gap="3" wrap="wrap">
        <Button
          colorPalette="brand"
          loading={connect.isPending}
          onClick={() => connect.mutate({ tab: openAuthorizationTab() }, { onSuccess: () => setCodeOpen(codeNeeded) })}
        >
          {gmailLabel}
        </Button>
        {devConnectAvailable && (
          <Button variant="outline" loading={toggle.isPending} onClick={() => toggle.mutate()}>
            Toggle Email (Dev)
          </Button>
        )}
        {codeNeeded && (
          <Button variant="ghost" onClick={() => setCodeOpen(true)}>
            Enter Authorization Code
          </Button>
        )}
      </Stack>
      {codeOpen && <AuthorizationCodeDialog onClose={() => setCodeOpen(false)} />}
    </>
  );
}

/** The 'Connect your email account' card. */
export function ConnectEmailCard() {
  return (
    <Card.Root variant="outline">
      <Card.Header>
        <Heading as="h3" size="md">
          Connect your email account
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          FareBack reads your inbox (read-only) for airline confirmations and watches those flights for price drops.
        </Text>
      </Card.Header>
      <Card.Body>
        <EmailConnectActions />
      </Card.Body>
    </Card.Root>
  );
}

/** 'Enter Authorization Code': the code Google shows, exchanged by the api. */
export function AuthorizationCodeDialog({ onClose }: { onClose: () => void }) {
  const exchange = useManualTokenExchange();
  const [code, setCode] = useState('');
  const busy = exchange.isPending;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!trimmed) {
      notify({
        title: 'Authorization code required',
        description: 'Please enter the authorization code you received.',
        status: 'error',
      });
      return;
    }
    exchange.mutate(trimmed, { onSuccess: onClose });
  };

  return (
    <FormDialog
      title="Enter Authorization Code"
      submitLabel="Connect Account"
      busy={busy}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <Text fontSize="sm" color="fg.muted">
        If Google showed you a code after you allowed access, paste it here.
      </Text>
      <Field.Root disabled={busy}>
        <Field.Label>Authorization code</Field.Label>
        <Input
          name="code"
          autoComplete="off"
          spellCheck={false}
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </Field.Root>
    </FormDialog>
  );
}
