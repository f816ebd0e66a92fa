import { Box, Button, Card, Container, Flex, Heading, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { contactInputSchema } from '@shared/schemas/contact.ts';
import { useEffect, useRef, type ReactNode } from 'react';
import type { IconType } from 'react-icons';
import { LuClock, LuLifeBuoy, LuMail, LuMessageSquare } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { TextareaField } from '@/components/form/textarea-field';
import { TextField } from '@/components/form/text-field';
import { notify } from '@/components/ui/toaster';
import { useZodForm } from '@/hooks/use-zod-form';
import { useCurrentUser } from '@/lib/auth';
import { SUPPORT_EMAIL, SUPPORT_HOURS, SUPPORT_RESPONSE_TIME } from '@/lib/support';
import { contactErrorMessage, useSendContactMessage } from './api';

const EMPTY = { name: '', email: '', subject: '', message: '' };

function InfoItem({ icon: Icon, title, children }: { icon: IconType; title: string; children: ReactNode }) {
  return (
    <Flex gap="4" align="flex-start">
      <Flex
        align="center"
        justify="center"
        flexShrink="0"
        boxSize="10"
        borderRadius="lg"
        bg="brand.subtle"
        color="brand.fg"
        aria-hidden="true"
      >
        <Icon />
      </Flex>
      <Stack gap="1">
        <Heading as="h3" fontSize="md">
          {title}
        </Heading>
        <Box color="fg.muted">{children}</Box>
      </Stack>
    </Flex>
  );
}

function ContactForm() {
  const { data: user } = useCurrentUser();
  const send = useSendContactMessage();
  // A signed-in user's name and address are filled in, also after a reset.
  const prefill = user ? { ...EMPTY, name: user.username, email: user.email } : EMPTY;
  const form = useZodForm(contactInputSchema, prefill);
  const prefilledFor = useRef<string | null>(null);

  // The user may load after the form first renders: fill in once, unless the person has typed.
  useEffect(() => {
    if (!user || prefilledFor.current === user.email) return;
    prefilledFor.current = user.email;
    if (!form.values.name && !form.values.email) form.reset({ ...EMPTY, name: user.username, email: user.email });
  }, [user, form]);

  const onSubmit = form.handleSubmit((input) => {
    send.mutate(input, {
      onSuccess: () => {
        notify({
          title: 'Message Sent',
          description: "We've received your message and will get back to you shortly.",
          status: 'success',
        });
        form.reset(prefill);
      },
      onError: (error) => notify({ title: 'Error', description: contactErrorMessage(error), status: 'error' }),
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="contact-form-title">
      <Stack gap="5">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
          <TextField label="Name" autoComplete="name" required {...form.field('name')} />
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            {...form.field('email')}
          />
        </SimpleGrid>
        <TextField label="Subject" required {...form.field('subject')} />
        <TextareaField
          label="Message"
          rows={6}
          required
          hint="Include your booking confirmation code if your question is about a flight."
          {...form.field('message')}
        />
        <Button
          type="submit"
          size="lg"
          alignSelf={{ base: 'stretch', sm: 'flex-start' }}
          loading={send.isPending}
          loadingText="Sending..."
        >
          Send Message
        </Button>
      </Stack>
    </form>
  );
}

export function ContactPage() {
  return (
    <Box bg="bg.subtle" flex="1">
      <title>Contact Us · FareBack</title>
      <Container maxW="6xl" py={{ base: '10', md: '16' }}>
        <Stack gap="3" mb={{ base: '8', md: '10' }} maxW="2xl">
          <Heading as="h1" fontSize={{ base: '3xl', md: '4xl' }} letterSpacing="tight">
            Contact Us
          </Heading>
          <Text color="fg.muted" fontSize="lg">
            Questions about a flight, a price drop or your account? Send us a message and a real person will reply.
          </Text>
        </Stack>
        <SimpleGrid columns={{ base: 1, lg: 3 }} gap="8" alignItems="start">
          <Card.Root gridColumn={{ lg: 'span 2' }} variant="elevated" borderRadius="xl">
            <Card.Header>
              <Heading as="h2" id="contact-form-title" fontSize="xl">
                Send us a message
              </Heading>
            </Card.Header>
            <Card.Body>
              <ContactForm />
            </Card.Body>
          </Card.Root>
          <Stack
            as="aside"
            aria-labelledby="contact-info-title"
            gap="6"
            p={{ base: '6', md: '8' }}
            bg="bg"
            borderRadius="xl"
            borderWidth="1px"
          >
            <Heading as="h2" id="contact-info-title" fontSize="xl">
              Contact information
            </Heading>
            <InfoItem icon={LuMail} title="Email">
              <Link href={`mailto:${SUPPORT_EMAIL}`} color="brand.fg" fontWeight="medium">
                {SUPPORT_EMAIL}
              </Link>
            </InfoItem>
            <InfoItem icon={LuClock} title="Support hours">
              <Text>{SUPPORT_HOURS}</Text>
              <Text>Closed at weekends</Text>
            </InfoItem>
            <InfoItem icon={LuMessageSquare} title="Response time">
              <Text>We reply within {SUPPORT_RESPONSE_TIME}.</Text>
            </InfoItem>
            <InfoItem icon={LuLifeBuoy} title="Help Center">
              <Text>
                Many answers are already in our{' '}
                <Link asChild color="brand.fg" fontWeight="medium">
                  <RouterLink to="/help">Help Center</RouterLink>
                </Link>
                .
              </Text>
            </InfoItem>
          </Stack>
        </SimpleGrid>
      </Container>
    </Box>
  );
}
