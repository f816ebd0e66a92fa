import { Badge, Button, Flex, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { CheckList } from '@/components/ui/check-list';
import { Link as RouterLink } from 'react-router';
import { usePublishedPricing } from '../api';
import { freeFeatures, premiumFeatures } from '../content';
import { Section } from './section';

/*
 * Whole dollars and cents for the price tag. Not lib/format's formatMoney: that module shares a
 * chunk with date-fns, which the landing page would then download for one number.
 */
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

interface PlanCardProps {
  name: string;
  price: string;
  period: string;
  description: string;
  features: string[];
  cta: string;
  highlighted?: boolean;
}

function PlanCard({ name, price, period, description, features, cta, highlighted = false }: PlanCardProps) {
  const titleId = `plan-${name.toLowerCase()}`;
  return (
    <Stack
      as="article"
      aria-labelledby={titleId}
      gap="6"
      p={{ base: '6', md: '8' }}
      bg="bg"
      borderRadius="2xl"
      borderWidth={highlighted ? '2px' : '1px'}
      borderColor={highlighted ? 'brand.solid' : 'border'}
      boxShadow={highlighted ? 'xl' : 'sm'}
      position="relative"
    >
      <Stack gap="2">
        <HStack justify="space-between">
          <Heading as="h3" id={titleId} fontSize="2xl">
            {name}
          </Heading>
          {highlighted && (
            <Badge colorPalette="brand" variant="solid" size="md">
              Most savings
            </Badge>
          )}
        </HStack>
        <Text color="fg.muted">{description}</Text>
      </Stack>
      <Flex align="baseline" gap="1">
        <Text as="span" fontSize="5xl" fontWeight="bold" letterSpacing="tight" lineHeight="1">
          {price}
        </Text>
        <Text as="span" color="fg.muted" fontSize="lg">
          {period}
        </Text>
      </Flex>
      <CheckList items={features} flex="1" />
      <Button asChild size="lg" variant={highlighted ? 'solid' : 'outline'}>
        <RouterLink to="/sign-up">{cta}</RouterLink>
      </Button>
    </Stack>
  );
}

export function Pricing() {
  const { premiumPriceCents, commissionRate, freeFlightLimit } = usePublishedPricing();
  return (
    <Section
      id="pricing"
      eyebrow="Pricing"
      title="Simple pricing that pays for itself"
      intro="Start free. Upgrade when you want FareBack to rebook for you."
      bg="bg.subtle"
    >
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="6" maxW="4xl" mx="auto">
        <PlanCard
          name="Free"
          price="$0"
          period="/month"
          description="For the occasional trip: we watch, you rebook."
          features={freeFeatures(freeFlightLimit)}
          cta="Start for free"
        />
        <PlanCard
          name="Premium"
          price={usd.format(premiumPriceCents / 100)}
          period="/year"
          description="For frequent flyers: we watch and rebook automatically."
          features={premiumFeatures(commissionRate)}
          cta="Go Premium"
          highlighted
        />
      </SimpleGrid>
      <Text textAlign="center" color="fg.muted" fontSize="sm" mt="6">
        Premium is billed annually and renews each year. Cancel any time from your dashboard: Premium stays until the
        end of the year you paid for and is not renewed (or ends at once if you choose, with no refund).
      </Text>
    </Section>
  );
}
