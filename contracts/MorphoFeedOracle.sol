// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IFeed {
    function latestAnswer() external view returns (int256);
    function decimals() external view returns (uint8);
}

/**
 * A Morpho Blue IOracle over two Chainlink-style feeds, in the spirit of MorphoChainlinkOracleV2:
 * price() = loan-token units per collateral unit, scaled by 1e36 and adjusted for token decimals:
 *   SCALE_FACTOR = 10^(36 + loanDecimals + quoteFeedDecimals - collateralDecimals - baseFeedDecimals)
 *   price        = SCALE_FACTOR * baseFeed / quoteFeed
 * A zero quote feed means the loan token is worth exactly 1 unit of the feeds' currency (USDC ≈ 1 USD).
 * Because it reads the same SettableAggregator feeds as the devnet Aave oracle, one price update from the
 * simulator moves both protocols.
 */
contract MorphoFeedOracle {
    IFeed public immutable BASE_FEED;
    IFeed public immutable QUOTE_FEED;
    uint256 public immutable SCALE_FACTOR;

    error NegativeAnswer();

    constructor(address baseFeed, address quoteFeed, uint8 collateralDecimals, uint8 loanDecimals) {
        BASE_FEED = IFeed(baseFeed);
        QUOTE_FEED = IFeed(quoteFeed);
        uint256 quoteFeedDecimals = quoteFeed == address(0) ? 0 : IFeed(quoteFeed).decimals();
        SCALE_FACTOR = 10
            ** (36 + uint256(loanDecimals) + quoteFeedDecimals - uint256(collateralDecimals)
                - uint256(IFeed(baseFeed).decimals()));
    }

    function price() external view returns (uint256) {
        int256 base = BASE_FEED.latestAnswer();
        if (base < 0) revert NegativeAnswer();
        if (address(QUOTE_FEED) == address(0)) return SCALE_FACTOR * uint256(base);
        int256 quote = QUOTE_FEED.latestAnswer();
        if (quote <= 0) revert NegativeAnswer();
        return SCALE_FACTOR * uint256(base) / uint256(quote);
    }
}
