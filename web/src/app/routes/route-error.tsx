import { Button, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';

/** Shown when a route fails to render or its code fails to load (e.g. after a deploy). */
export function RouteError() {
  return (
    <Container maxW="xl" py={{ base: '16', md: '24' }}>
      <Stack gap="4" align="center" textAlign="center" role="alert">
        <Heading as="h1" size="2xl">
          Something went wrong
        </Heading>
        <Text color="fg.muted">The page could not be shown. Reloading usually fixes this.</Text>
        <Button mt="4" onClick={() => window.location.reload()}>
          Reload the page
        </Button>
      </Stack>
    </Container>
  );
}

interface BoundaryProps {
  /** The history entry shown: a navigation clears the error. */
  locationKey: string;
  children: ReactNode;
}

interface BoundaryState {
  failed: boolean;
  locationKey: string;
}

// React logs the error it catches here (console.error).
class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, locationKey: this.props.locationKey };

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): BoundaryState | null {
    return props.locationKey === state.locationKey ? null : { failed: false, locationKey: props.locationKey };
  }

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

/** RouteError in place of `children` when they throw, until the next navigation. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <Boundary locationKey={useLocation().key}>{children}</Boundary>;
}
