/**
 * A gateway whose answer to the charge is held: `fetch` for the companion's gateway client, which
 * passes every call to the sandbox and keeps the pay call's answer until `release()`. `atGateway`
 * resolves once the charge has reached the gateway (the payment is in flight).
 */
export function heldCharge(): { fetch: typeof fetch; atGateway: Promise<void>; release: () => void } {
  let charging = () => {};
  const atGateway = new Promise<void>((resolve) => (charging = resolve));
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    atGateway,
    release: () => release(),
    fetch: async (input, init) => {
      const answer = await fetch(input, init);
      if (String(input).endsWith('/api/v1/payment')) {
        charging();
        await released;
      }
      return answer;
    },
  };
}
