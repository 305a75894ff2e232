// Placeholder until the contract core lands.
public enum BridgeContractModule {}
