// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Chainlink tokenized-equity feed stand-in (devnet only), etched at the real feed address
/// @notice AggregatorV3 surface, 8 decimals; the answer is the total-return price (underlying x multiplier).
/// The admin sets answers; `setAnswerAt` backdates `updatedAt` to simulate off-hours freezes and staleness.
contract StockPriceFeedStandIn {
    error NotAdmin();
    error NoRound();
    error NotImplemented(bytes4 selector);

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt);

    struct Round {
        int256 answer;
        uint256 updatedAt;
    }

    uint8 public constant decimals = 8;
    uint256 public constant version = 6;
    address public admin;
    string public description;
    uint80 public latestRound;
    mapping(uint80 => Round) internal _rounds;

    constructor(string memory description_, int256 initialAnswer, address admin_) {
        description = description_;
        admin = admin_;
        _set(initialAnswer, block.timestamp);
    }

    function setAnswer(int256 answer) external {
        if (msg.sender != admin) revert NotAdmin();
        _set(answer, block.timestamp);
    }

    function setAnswerAt(int256 answer, uint256 updatedAt) external {
        if (msg.sender != admin) revert NotAdmin();
        _set(answer, updatedAt);
    }

    function latestAnswer() external view returns (int256) {
        return _rounds[latestRound].answer;
    }

    function latestTimestamp() external view returns (uint256) {
        return _rounds[latestRound].updatedAt;
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return getRoundData(latestRound);
    }

    function getRoundData(uint80 roundId) public view returns (uint80, int256, uint256, uint256, uint80) {
        Round memory r = _rounds[roundId];
        if (r.updatedAt == 0) revert NoRound();
        return (roundId, r.answer, r.updatedAt, r.updatedAt, roundId);
    }

    function _set(int256 answer, uint256 updatedAt) internal {
        uint80 roundId = latestRound + 1;
        latestRound = roundId;
        _rounds[roundId] = Round(answer, updatedAt);
        emit NewRound(roundId, msg.sender, updatedAt);
        emit AnswerUpdated(answer, roundId, updatedAt);
    }

    fallback() external payable {
        revert NotImplemented(msg.sig);
    }
}
