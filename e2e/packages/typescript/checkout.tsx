/** A merchant's React checkout in TypeScript, compiled (never run) by types.test.ts. */
import { PayButton, PayForm } from '@payform/widget/react';

export function Checkout({ sessionId, navigate }: { sessionId: string; navigate: (to: string) => void }) {
  return (
    <>
      <PayForm session={sessionId} endpoint="https://shop.example" onPaySuccess={(event) => navigate(`/thanks/${event.detail.orderId ?? ''}`)} onPayFailure={(event) => navigate(`/failed?reason=${event.detail.message}`)} />
      <PayButton session={sessionId} />
    </>
  );
}
