import { Text } from '@chakra-ui/react';
import { formatMoney } from '@/lib/format';

/**
 * A booking's price on the card (issue 23): prices are the whole booking's, for all its
 * passengers; a party's card shows the price per passenger with the booking's total beside it.
 */
export function PartyPrice({ total, passengers }: { total: number | null; passengers: number | null }) {
  if (total === null) return null;
  const party = passengers ?? 1;
  if (party <= 1) return <>{formatMoney(total)}</>;
  return (
    <>
      {formatMoney(Math.round(total / party))}{' '}
      <Text as="span" fontSize="xs" color="fg.muted" fontWeight="normal">
        each
      </Text>
      <Text as="span" display="block" fontSize="sm" color="fg.muted" fontWeight="normal">
        {formatMoney(total)} total for {party}
      </Text>
    </>
  );
}
