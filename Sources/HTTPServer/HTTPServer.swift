// The HTTP/1.1 server module; see the other files in this folder.
