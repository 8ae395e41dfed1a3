// A local module whose own top level awaits (k6 runs scripts as ES modules; a module that awaits holds up every
// module that imports it until it has settled).
const settled = await new Promise((resolve) => setTimeout(() => resolve({ path: '/anything/await', copies: 2 }), 1));

export const config = settled;
