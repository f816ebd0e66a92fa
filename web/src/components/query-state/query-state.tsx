import { Alert, Button, EmptyState as ChakraEmptyState, HStack, Skeleton, Stack, VStack } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '@/lib/api-client';

/*
 * The three states every server read passes through before it has something to show: the first
 * load (a skeleton shaped like what is coming, announced as busy), a failure (the server's
 * message and a Retry that refetches the same query), and nothing to show (a title, a line on
 * why, and what to do about it). Areas render them through <QueryState>, or use the pieces
 * directly when emptiness depends on more than the query's data.
 */

export interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  /** A button or link that gets the reader out of the empty state. */
  action?: ReactNode;
  icon?: ReactNode;
}

export function EmptyState({ title, description, action, icon }: EmptyStateProps) {
  return (
    <ChakraEmptyState.Root size="sm" borderWidth="1px" borderStyle="dashed" borderRadius="l3">
      <ChakraEmptyState.Content>
        {icon && <ChakraEmptyState.Indicator aria-hidden>{icon}</ChakraEmptyState.Indicator>}
        <VStack textAlign="center" gap="1">
          <ChakraEmptyState.Title>{title}</ChakraEmptyState.Title>
          {description && <ChakraEmptyState.Description maxW="prose">{description}</ChakraEmptyState.Description>}
        </VStack>
        {action && (
          <HStack gap="2" wrap="wrap" justify="center">
            {action}
          </HStack>
        )}
      </ChakraEmptyState.Content>
    </ChakraEmptyState.Root>
  );
}

export interface ErrorStateProps {
  title: string;
  error: unknown;
  /** Shown when the error carries no message of the server's. */
  fallback?: string;
  onRetry: () => void;
  /** True while the retry is under way. */
  retrying?: boolean;
}

export function ErrorState({
  title,
  error,
  fallback = 'Please try again in a moment.',
  onRetry,
  retrying = false,
}: ErrorStateProps) {
  return (
    <Alert.Root
      role="alert"
      status="error"
      borderRadius="md"
      alignItems={{ base: 'flex-start', sm: 'center' }}
      flexWrap="wrap"
    >
      <Alert.Indicator />
      <Alert.Content minW="0" flex="1">
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{errorMessage(error, fallback)}</Alert.Description>
      </Alert.Content>
      <Button size="sm" variant="outline" onClick={onRetry} loading={retrying} loadingText="Retrying...">
        Retry
      </Button>
    </Alert.Root>
  );
}

/** A busy region with a skeleton; `label` says what is loading ('Loading flights'). */
export function LoadingState({ label, children }: { label: string; children?: ReactNode }) {
  return (
    <Stack gap="3" aria-busy="true" aria-label={label} role="status">
      {children ?? (
        <>
          <Skeleton height="10" borderRadius="md" />
          <Skeleton height="10" borderRadius="md" />
          <Skeleton height="10" borderRadius="md" />
        </>
      )}
    </Stack>
  );
}

export interface QueryStateProps<T> {
  query: UseQueryResult<T>;
  /** Announced while the first load runs: 'Loading flights'. */
  loadingLabel: string;
  /** The skeleton for the first load, shaped like the content; three bars by default. */
  skeleton?: ReactNode;
  /** The error's heading: 'Your flights could not be loaded'. */
  errorTitle: string;
  errorFallback?: string;
  /** The empty state, shown instead of the content when `when(data)` holds. */
  empty?: EmptyStateProps & { when: (data: T) => boolean };
  children: (data: T) => ReactNode;
}

/** Loading, error with Retry, empty, or the content, for one query. */
export function QueryState<T>({
  query,
  loadingLabel,
  skeleton,
  errorTitle,
  errorFallback,
  empty,
  children,
}: QueryStateProps<T>) {
  if (query.isPending) return <LoadingState label={loadingLabel}>{skeleton}</LoadingState>;
  if (query.isError) {
    return (
      <ErrorState
        title={errorTitle}
        error={query.error}
        fallback={errorFallback}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  if (empty?.when(query.data)) {
    const { when: _when, ...emptyProps } = empty;
    return <EmptyState {...emptyProps} />;
  }
  return <>{children(query.data)}</>;
}
