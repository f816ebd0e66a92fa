import { Box, Link, Stack, Text } from '@chakra-ui/react';
import { IconChevronDown } from '@/components/ui/icons';
import { Link as RouterLink } from 'react-router';
import { FAQ } from '../content';
import { Section } from './section';

/*
 * Native <details>/<summary>: keyboard and screen-reader support come with the browser, every
 * answer is in the page (and findable with Ctrl+F), and no accordion code loads.
 */
export function Faq() {
  return (
    <Section
      id="faq"
      eyebrow="FAQs"
      title="Questions travellers ask us"
      intro={
        <>
          Can&apos;t find your answer? Visit the{' '}
          <Link asChild color="brand.fg" fontWeight="medium" textDecoration="underline">
            <RouterLink to="/help">Help Center</RouterLink>
          </Link>{' '}
          or{' '}
          <Link asChild color="brand.fg" fontWeight="medium" textDecoration="underline">
            <RouterLink to="/contact">contact us</RouterLink>
          </Link>
          .
        </>
      }
    >
      <Stack gap="3" maxW="3xl" mx="auto">
        {FAQ.map(({ id, question, answer }) => (
          <Box
            as="details"
            key={id}
            id={id}
            bg="bg"
            borderWidth="1px"
            borderRadius="lg"
            css={{
              '&[open] .faq-chevron': { transform: 'rotate(180deg)' },
              '& summary::-webkit-details-marker': { display: 'none' },
            }}
          >
            <Box
              as="summary"
              display="flex"
              alignItems="center"
              justifyContent="space-between"
              gap="4"
              px={{ base: '4', md: '6' }}
              py="4"
              cursor="pointer"
              fontWeight="semibold"
              fontSize={{ base: 'md', md: 'lg' }}
              listStyleType="none"
              borderRadius="lg"
              _hover={{ color: 'brand.fg' }}
              _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '2px' }}
            >
              <span>{question}</span>
              <Box className="faq-chevron" flexShrink="0" transition="transform 0.2s" aria-hidden="true">
                <IconChevronDown />
              </Box>
            </Box>
            <Stack gap="3" px={{ base: '4', md: '6' }} pb="5" color="fg.muted">
              {answer.map((paragraph) => (
                <Text key={paragraph.slice(0, 24)}>{paragraph}</Text>
              ))}
            </Stack>
          </Box>
        ))}
      </Stack>
    </Section>
  );
}
