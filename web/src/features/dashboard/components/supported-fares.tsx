import { Badge, Card, Heading, HStack, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { SUPPORTED_FARE_TYPES, UNSUPPORTED_FARE_TYPES } from '@shared/constants.ts';
import { LuCircleCheck, LuCircleX } from 'react-icons/lu';
import { useAirlines } from '@/hooks/use-airlines';

/**
 * Which bookings FareBack can watch and rebook: the supported airlines (those FareBack rebooks
 * automatically, from the product's one airline list: public.airlines through GET /api/airlines;
 * any other airline is watched and guided), and the fare types that can be changed (Basic
 * Economy, non-refundable, cannot).
 */
export function SupportedFares() {
  const airlines = useAirlines();
  const automatic = (airlines.data?.airlines ?? []).filter((a) => a.automaticRebooking);
  return (
    <Card.Root as="section" variant="outline" size="sm" aria-labelledby="supported-fares">
      <Card.Header>
        <Heading as="h2" size="md" id="supported-fares">
          Supported airlines and fares
        </Heading>
      </Card.Header>
      <Card.Body>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="6">
          <Stack gap="3">
            <Heading as="h3" size="sm">
              Supported Airlines
            </Heading>
            <HStack as="ul" aria-label="Supported airlines" listStyleType="none" gap="2" wrap="wrap" minH="16">
              {automatic.map((airline) => (
                <Badge as="li" key={airline.code} variant="surface" size="md">
                  {airline.name}
                </Badge>
              ))}
            </HStack>
            <Text fontSize="sm" color="fg.muted">
              FareBack rebooks these automatically. You can add a booking on any other airline: we watch its price and
              guide you through the change.
            </Text>
          </Stack>
          <Stack gap="3">
            <Heading as="h3" size="sm">
              Supported Fare Types
            </Heading>
            <Stack as="ul" aria-label="Supported fare types" listStyleType="none" gap="1.5">
              {SUPPORTED_FARE_TYPES.map((fare) => (
                <HStack as="li" key={fare} gap="2">
                  <Icon as={LuCircleCheck} color="green.fg" aria-hidden />
                  <Text fontSize="sm">{fare}</Text>
                </HStack>
              ))}
            </Stack>
            <Stack as="ul" aria-label="Not supported" listStyleType="none" gap="1.5">
              {UNSUPPORTED_FARE_TYPES.map((fare) => (
                <HStack as="li" key={fare} gap="2">
                  <Icon as={LuCircleX} color="fg.error" aria-hidden />
                  <Text fontSize="sm">Not supported: {fare} (non-refundable)</Text>
                </HStack>
              ))}
            </Stack>
          </Stack>
        </SimpleGrid>
      </Card.Body>
    </Card.Root>
  );
}
