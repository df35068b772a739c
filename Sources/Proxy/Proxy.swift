// The proxy module: config, routes, origin client, handlers.
