/** A full, valid agent card used by the card-* tests: every nested object appears at least once. */
import type { AgentCard } from '../src/protocol/card.js';

export function fullCard(): AgentCard {
  return {
    name: 'Tide Table Agent',
    description: 'Answers questions about tides at coastal stations.',
    supportedInterfaces: [
      { url: 'https://tides.test/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      {
        url: 'https://tides.test/a2a/rest',
        protocolBinding: 'HTTP+JSON',
        protocolVersion: '1.0',
        tenant: 'north',
      },
    ],
    provider: { organization: 'Harbour Data Co', url: 'https://harbour.test' },
    version: '2.3.0',
    documentationUrl: 'https://tides.test/docs',
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: false,
      extensions: [
        {
          uri: 'https://ext.test/units',
          description: 'Metric units',
          required: false,
          params: { unit: 'm' },
        },
      ],
    },
    securitySchemes: {
      key: { apiKeySecurityScheme: { location: 'header', name: 'X-Api-Key' } },
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
      oauth: {
        oauth2SecurityScheme: {
          flows: {
            authorizationCode: {
              authorizationUrl: 'https://auth.test/authorize',
              tokenUrl: 'https://auth.test/token',
              scopes: { 'tides:read': 'Read tide tables' },
              pkceRequired: true,
            },
          },
        },
      },
      device: {
        oauth2SecurityScheme: {
          flows: {
            deviceCode: {
              deviceAuthorizationUrl: 'https://auth.test/device',
              tokenUrl: 'https://auth.test/token',
              scopes: {},
            },
          },
        },
      },
      oidc: {
        openIdConnectSecurityScheme: {
          openIdConnectUrl: 'https://auth.test/.well-known/openid-configuration',
        },
      },
      mtls: { mtlsSecurityScheme: {} },
    },
    securityRequirements: [
      { schemes: { oauth: { list: ['tides:read'] } } },
      { schemes: { key: { list: [] } } },
    ],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'high-tide',
        name: 'Next high tide',
        description: 'Time and height of the next high tide at a station.',
        tags: ['tides', 'forecast'],
        examples: ['When is high tide in Brest?'],
        inputModes: ['text/plain'],
        outputModes: ['application/json'],
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      },
    ],
    iconUrl: 'https://tides.test/icon.png',
  };
}
