public enum XcodeRunnerModule {}
