import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Pages are lazy chunks: the first render of one imports (and, under Vitest, transforms) its
// module. On CI's two shared cores that alone has taken over a second, Testing Library's default
// wait, while nothing in the page was late. findBy* still fails at once when the page settles
// on something else; this only stops it from giving up while the module is still loading.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => cleanup());
