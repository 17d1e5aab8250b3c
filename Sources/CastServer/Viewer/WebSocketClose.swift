/// WebSocket close codes used here (RFC 6455).
package enum WebSocketClose {
    package static let goingAway = 1001
    package static let policyViolation = 1008
    package static let messageTooBig = 1009
}
