// What the rest of the project uses of the products area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Nothing: the area is reached only through its operations, which generated routes bind.
export {};
