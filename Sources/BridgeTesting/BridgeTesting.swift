public enum BridgeTestingModule {}
