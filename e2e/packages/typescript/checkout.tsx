/** A merchant's React checkout in TypeScript, compiled (never run) by types.test.ts. */
import { useRef } from 'react';
import type { PayForm as PayFormElement } from '@payform/widget';
import { PayButton, PayForm } from '@payform/widget/react';

export function Checkout({ sessionId, navigate }: { sessionId: string; navigate: (to: string) => void }) {
  return (
    <>
      <PayForm session={sessionId} endpoint="https://shop.example" onPaySuccess={(event) => navigate(`/thanks/${event.detail.orderId ?? ''}`)} onPayFailure={(event) => navigate(`/failed?reason=${event.detail.message}`)} />
      <PayButton session={sessionId} />
      {/* The element works out `hosted` itself (a getter): as a prop it would throw and unmount the tree. */}
      {/* @ts-expect-error hosted is not a prop */}
      <PayForm session={sessionId} hosted />
    </>
  );
}

/** The shop's own "Place order" button pays through the element's pay(). */
export function PlaceOrder({ sessionId }: { sessionId: string }) {
  const form = useRef<PayFormElement>(null);
  return (
    <>
      <PayForm ref={form} session={sessionId} />
      <button type="button" onClick={() => void form.current?.pay()}>Place order</button>
    </>
  );
}

/** Settings handed on as the page has them, undefined until known: under exactOptionalPropertyTypes. */
export function Configured({ endpoint, poll }: { endpoint?: string | undefined; poll?: number | undefined }) {
  return <PayForm session={null} endpoint={endpoint} pollInterval={poll} />;
}
