#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: no build step between a clone and `npm start`.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
