import { ROLES } from './roles.js';

export const loginSchema = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.@-]{0,59}$' } as const;
export const passwordSchema = { type: 'string', minLength: 8, maxLength: 1024 } as const;
export const roleSchema = { enum: [...ROLES] } as const;
export const appPasswordNameSchema = { type: 'string', minLength: 1, maxLength: 100 } as const;

export const createUserBody = {
  type: 'object',
  required: ['login', 'role'],
  additionalProperties: false,
  properties: {
    login: loginSchema,
    role: roleSchema,
    password: passwordSchema,
    capabilities: { type: 'array', items: { enum: ['view_logs'] }, uniqueItems: true },
    app_password_name: appPasswordNameSchema,
  },
} as const;
