/** Security-scheme enforcement derived from the agent card (spec §4.5, §7, §13.3). */
export {
  authenticatorFromCard,
  serverAuthOptions,
  type CardAuthOptions,
  type ServerAuthOptions,
  type Verifiers,
} from './authenticator.js';
export { challengeFromCard, describeScheme } from './challenge.js';
export {
  apiKey,
  apiKeyOf,
  authorizationOf,
  basic,
  bearer,
  mutualTls,
  safeEqual,
  staticApiKeys,
  staticBearerTokens,
  type SchemeOutcome,
  type SchemeVerifier,
} from './verifiers.js';
export { jwtBearer, type JwtBearerOptions } from './jwt.js';
