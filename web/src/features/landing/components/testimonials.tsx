import { Box, Flex, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { IconStar } from '@/components/ui/icons';
import { TESTIMONIALS } from '../content';
import { Section } from './section';

const RATING = '5.0';

function Stars() {
  return (
    <HStack gap="0.5" color="orange.400" aria-hidden="true">
      {[0, 1, 2, 3, 4].map((i) => (
        <IconStar key={i} fill="currentColor" />
      ))}
    </HStack>
  );
}

export function Testimonials() {
  return (
    <Section id="testimonials" eyebrow="Reviews" title="Travellers are getting money back">
      <SimpleGrid columns={{ base: 1, md: 3 }} gap="6">
        {TESTIMONIALS.map(({ quote, name, detail }) => (
          <Stack as="figure" key={name} gap="4" p="6" bg="bg" borderWidth="1px" borderRadius="xl" boxShadow="xs">
            <HStack gap="2" role="img" aria-label={`Rated ${RATING} out of 5`}>
              <Stars />
              <Text as="span" fontWeight="semibold" aria-hidden="true">
                {RATING}
              </Text>
            </HStack>
            <Box as="blockquote" flex="1">
              <Text fontSize="md">“{quote}”</Text>
            </Box>
            <Flex as="figcaption" direction="column">
              <Text fontWeight="semibold">{name}</Text>
              <Text fontSize="sm" color="fg.muted">
                {detail}
              </Text>
            </Flex>
          </Stack>
        ))}
      </SimpleGrid>
    </Section>
  );
}
