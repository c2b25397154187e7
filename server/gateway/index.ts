/**
 * payform's gateway package: the typed client, its errors, money in minor units and webhooks.
 * The wire format itself (schemas shared with the sandbox, the gateway's decimals) is
 * `@payform/gateway/wire` alone, so that the package root speaks one money unit.
 */
export { GatewayClient, DEFAULT_TIMEOUT_MS } from './client.js';
export type { GatewayClientConfig } from './client.js';
export type { GatewayCallObserver, GatewayCallRecord, RequestOptions } from './transport.js';
// Why a call failed in its TLS handshake: the sandbox's webhook sender says it as the client does.
export { tlsFailureOf } from './tls-failure.js';
export type { TlsFailure } from './tls-failure.js';
export { DEFAULT_RETRY_POLICY } from './retry.js';
export type { RetryPolicy } from './retry.js';
export type {
  CreatePaymentParams, DirectPaymentParams, HostedPaymentParams, SplitPurchaseParams, DirectSplitPurchaseParams,
  HostedSplitPurchaseParams, HostedCheckout, PayoutParams,
} from './resources/payments.js';
export type { CaptureParams, SplitCaptureParams, VoidParams, RefundParams, SplitRefundParams } from './resources/operations.js';
export type { OrderReceiptOptions, DateReceiptsOptions } from './resources/receipts.js';
export type { SplitShare } from './requests.js';
export type { GatewayDocument } from './replies.js';
export type {
  Payment, Operation, OrderOperation, Account, Terminal, TerminalList, Balance, Fee, WebhookEvent, PaymentEvent,
  OperationEvent,
} from './objects.js';
export {
  GatewayError, InvalidRequestError, DuplicateOrderError, AuthenticationError, NotFoundError, RateLimitError,
  GatewayUnavailableError, NetworkError, NetworkTimeoutError, NotTheGatewayError, OutcomeUnknownError, UnexpectedResponseError,
} from './errors.js';
export type { GatewayErrorDetails } from './errors.js';
export { maskCardData, maskFreeText } from './errors.js';
export { minorUnits, isMinorUnits, minorUnitsRefusal, describeMinorUnits, decimalMinorUnits, formatMinorUnits, formatLimit, currencyExponent } from './money.js';
export { CARD_NUMBER_MASK, namesSecurityCode, redact, redactor, REDACTED } from './redact.js';
// A URL with its password as `***`: what the companion's and the sandbox's lines show of one.
export { passwordMasked } from './shown-url.js';
export type { MinorUnits, WholeAmount, CheckedAmounts, LooseAmounts } from './money.js';
export {
  signWebhook, verifyWebhook, decodeWebhook, parseWebhookData, readWebhook, readWebhookEvent, encodeWebhookData, webhookForm, WebhookSignatureError, WebhookFormError,
  WebhookPayloadError,
} from './webhook.js';
export type { WebhookBody, WebhookForm } from './webhook.js';
// One HTTP request and its whole answer, as the client sends them: the sandbox posts its webhooks so too.
export { fetchExchange, pooledExchange } from './exchange.js';
// What a mistyped setting likely meant: the companion's and the sandbox's messages name it.
export { nearestName } from './near-names.js';
export { isQuotedSetting, quotedSettingProblem } from './setting-quotes.js';
export type { Exchange, OutgoingRequest, Answer } from './exchange.js';
export type { FieldIssue } from './wire/issues.js';
export type { MerchantSector } from './wire/payment.js';
export { StatusCode } from './wire/status.js';
export { TokenizeError, TokenizeRefusedError, TokenizerUnreachableError } from '@payform/card/tokenize';
export { readRichAnswer, sealRichAnswer, RichAnswerError } from './rich-answer.js';
export type { RichAnswer } from './rich-answer.js';
