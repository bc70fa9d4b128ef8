/** Where a piece of a request's input comes from: the path, the query string or the JSON body. */
export type InputLocation = 'path' | 'query' | 'body'
