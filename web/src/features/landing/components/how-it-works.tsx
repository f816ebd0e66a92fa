import { Box, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { COMMISSION_RATE_PERCENT, LANDING_AIRLINES } from '@shared/constants.ts';
import type { ComponentType, SVGProps } from 'react';

type IconType = ComponentType<SVGProps<SVGSVGElement>>;
import {
  IconBellRing,
  IconInbox,
  IconPiggyBank,
  IconRefreshCw,
  IconShieldCheck,
  IconTrendingDown,
} from '@/components/ui/icons';
import { Section } from './section';

const features: { icon: IconType; title: string; text: string }[] = [
  {
    icon: IconTrendingDown,
    title: 'We watch the fare for you',
    text: 'Airline prices move several times a day. FareBack re-checks the exact itinerary you booked, around the clock, until you fly.',
  },
  {
    icon: IconBellRing,
    title: 'You hear about every drop',
    text: 'When the price falls past your threshold you get an email with the old price, the new price and what you would get back.',
  },
  {
    icon: IconRefreshCw,
    title: 'Rebooked at the lower fare',
    text: 'Rebook in one click, or let Premium do it automatically. Same flight and seat; the airline returns the difference as credit.',
  },
  {
    icon: IconShieldCheck,
    title: 'Your inbox stays yours',
    text: 'Gmail access is read-only and limited to airline confirmations. Prefer not to connect it? Add a booking by hand.',
  },
];

export function HowItWorks() {
  return (
    <Section
      id="how-it-works"
      eyebrow="How it works"
      title="Fares drop after you book. Now you benefit."
      intro="Most travellers never check a fare again after booking. When it drops, the airline keeps the difference, unless someone asks for it. FareBack asks for you."
    >
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="6">
        {features.map(({ icon: Icon, title, text }) => (
          <Stack key={title} gap="3" p="6" borderWidth="1px" borderRadius="xl" bg="bg">
            <Flex
              align="center"
              justify="center"
              boxSize="11"
              borderRadius="lg"
              bg="brand.subtle"
              color="brand.fg"
              fontSize="xl"
              aria-hidden="true"
            >
              <Icon />
            </Flex>
            <Heading as="h3" fontSize="lg">
              {title}
            </Heading>
            <Text color="fg.muted">{text}</Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Section>
  );
}

/**
 * The airline's IATA code stands in for its logo, which we may not reproduce: it is what travellers
 * see on boarding passes and flight numbers (DL 1184), where made-up initials would read oddly.
 */
const IATA_CODES: Record<(typeof LANDING_AIRLINES)[number], string> = {
  American: 'AA',
  Delta: 'DL',
  United: 'UA',
  Southwest: 'WN',
  JetBlue: 'B6',
  'Japan Airlines': 'JL',
  Lufthansa: 'LH',
  'British Airways': 'BA',
  'Air Canada': 'AC',
  'Air France': 'AF',
};

function initials(name: (typeof LANDING_AIRLINES)[number]): string {
  return IATA_CODES[name];
}

export function SupportedAirlines() {
  return (
    <Section
      id="airlines"
      eyebrow="Supported airlines"
      title="Works with the airlines you already fly"
      intro="Bookings from these airlines are monitored automatically, in every cabin from flexible economy to first class."
      bg="bg.subtle"
    >
      <SimpleGrid as="ul" listStyleType="none" columns={{ base: 2, sm: 3, md: 5 }} gap="4">
        {LANDING_AIRLINES.map((airline) => (
          <Flex as="li" key={airline} align="center" gap="3" p="4" bg="bg" borderWidth="1px" borderRadius="lg" minW="0">
            <Flex
              align="center"
              justify="center"
              flexShrink="0"
              boxSize="9"
              borderRadius="full"
              bg="brand.solid"
              color="brand.contrast"
              fontSize="xs"
              fontWeight="bold"
              aria-hidden="true"
            >
              {initials(airline)}
            </Flex>
            <Text fontWeight="medium" lineClamp={2}>
              {airline}
            </Text>
          </Flex>
        ))}
      </SimpleGrid>
    </Section>
  );
}

const steps: { icon: IconType; title: string; text: string }[] = [
  {
    icon: IconInbox,
    title: 'Add your flights',
    text: 'Connect Gmail and we find your airline confirmations, or type in the airline, confirmation code and last name.',
  },
  {
    icon: IconTrendingDown,
    title: 'We track every price change',
    text: 'Your dashboard shows the price you paid, today’s price, and the lowest and highest fares we have seen.',
  },
  {
    icon: IconPiggyBank,
    title: 'Keep the difference',
    text: `Rebook at the lower fare and the savings come back as airline credit. Premium pays ${COMMISSION_RATE_PERCENT}% only when you save.`,
  },
];

export function ThreeSteps() {
  return (
    <Section id="steps" eyebrow="Three steps" title="Set it up once. Get money back for every trip.">
      <SimpleGrid as="ol" listStyleType="none" columns={{ base: 1, md: 3 }} gap={{ base: '8', md: '6' }}>
        {steps.map(({ icon: Icon, title, text }, index) => (
          <Stack as="li" key={title} gap="4" align={{ base: 'flex-start', md: 'center' }} textAlign={{ md: 'center' }}>
            <Box position="relative">
              <Flex
                align="center"
                justify="center"
                boxSize="16"
                borderRadius="full"
                bg="brand.subtle"
                color="brand.fg"
                fontSize="2xl"
                aria-hidden="true"
              >
                <Icon />
              </Flex>
              <Flex
                position="absolute"
                top="-1"
                right="-1"
                boxSize="7"
                align="center"
                justify="center"
                borderRadius="full"
                bg="brand.solid"
                color="brand.contrast"
                fontSize="sm"
                fontWeight="bold"
                aria-hidden="true"
              >
                {index + 1}
              </Flex>
            </Box>
            <Heading as="h3" fontSize="xl">
              <Box as="span" srOnly>
                Step {index + 1}:{' '}
              </Box>
              {title}
            </Heading>
            <Text color="fg.muted" maxW="sm">
              {text}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Section>
  );
}
