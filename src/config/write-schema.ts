// `npm run schema`: writes templates/config.schema.json from the one config schema.
import { writeFile } from 'node:fs/promises';
import { configJsonSchema } from './config-schema.js';

await writeFile(
  new URL('../../templates/config.schema.json', import.meta.url),
  `${JSON.stringify(configJsonSchema(), null, 2)}\n`,
);
