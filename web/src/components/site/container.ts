/** The width and side padding of every public page's sections, header and footer. */
export const CONTAINER = 'mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8';
